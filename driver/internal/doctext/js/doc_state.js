function () {
  // What the editor is: its kind, whether it takes typing, how to name
  // it, and whether the focus is in it now.
  const el = this;
  let kind = 'contenteditable', readOnly = !el.isContentEditable;
  if (el.classList.contains('CodeMirror')) {
    kind = 'codemirror';
    const ta = el.querySelector('textarea');
    readOnly = !ta || ta.readOnly || ta.disabled || el.classList.contains('CodeMirror-readonly');
  } else if (el.classList.contains('ql-editor')) {
    kind = 'quill';
  } else if (el.classList.contains('ProseMirror')) {
    kind = 'prosemirror';
  } else if (el.classList.contains('cm-content')) {
    kind = 'codemirror6';
  }
  let name = el.tagName.toLowerCase();
  if (el.id) name += '#' + el.id;
  else if (el.classList.length) name += '.' + Array.from(el.classList).slice(0, 2).join('.');
  const a = document.activeElement;
  return { kind, read_only: readOnly, name, focused: !!a && (a === el || el.contains(a)), empty: !el.textContent.trim() };
}
