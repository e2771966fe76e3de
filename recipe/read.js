// Reads the rows of a list by a recipe (waymark.recipe/1); arg is
// {recipe, snapshot}. Returns {found, rows: [{field: text|null}], shapes,
// lang}: shapes are the places in a row where text is written (each a path
// of tags and classes from the row), over all rows, so a caller can tell a
// row shape it has not seen.
const lang = norm(DOC.documentElement.lang || '');
const list = listRows(arg.recipe);
if (list.error) return { error: list.error };
const step = (e) => e.tagName.toLowerCase() + Array.from(e.classList).sort().map((c) => '.' + c).join('');
const shapes = new Set();
for (const row of list.rows) {
  for (const e of row.querySelectorAll('*')) {
    if (!Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.nodeValue.trim() !== '')) continue;
    const path = [];
    for (let a = e; a && a !== row; a = a.parentElement) path.unshift(step(a));
    shapes.add(path.join('>'));
  }
}
return { found: list.found, rows: list.values, shapes: Array.from(shapes), lang };
