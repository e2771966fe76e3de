// Reads the rows of a list by a recipe (waymark.recipe/1); arg is the
// recipe. Returns {found, rows: [{field: text|null}], lang}.
const lang = norm(document.documentElement.lang || '');
const list = listRows(arg);
if (list.error) return { error: list.error };
return { found: list.found, rows: list.values, lang };
