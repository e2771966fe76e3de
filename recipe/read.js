// Reads the rows of a list by a recipe (waymark.recipe/1); arg is the
// recipe. Returns {found, rows: [{field: text|null}], lang}.
const lang = norm(document.documentElement.lang || '');
let container = null;
try { container = document.querySelector(arg.container); } catch (e) { return { error: 'container: ' + e.message }; }
if (!container) return { found: false, rows: [], lang };
let rowEls = [];
try { rowEls = Array.from(container.querySelectorAll(':scope > ' + arg.row)); } catch (e) { return { error: 'row: ' + e.message }; }
const rows = [];
for (const row of rowEls) {
  const out = {};
  let any = false;
  for (const f of arg.fields) {
    out[f.name] = readOne(row, f);
    if (out[f.name] !== null) any = true;
  }
  if (any) rows.push(out); // an element with none of the fields (a header row) is not a row
}
return { found: true, rows, lang };
