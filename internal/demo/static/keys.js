// Log every keydown and keyup of the input, e.g. "keydown Control+a".
(function () {
  const input = document.getElementById('key-input');
  const log = document.getElementById('key-log');
  const mods = [['ctrlKey', 'Control'], ['altKey', 'Alt'], ['shiftKey', 'Shift'], ['metaKey', 'Meta']];
  function record(ev) {
    const parts = mods.filter(([prop, name]) => ev[prop] && ev.key !== name).map(([, name]) => name);
    parts.push(ev.key === ' ' ? 'Space' : ev.key);
    const li = document.createElement('li');
    li.textContent = ev.type + ' ' + parts.join('+');
    log.appendChild(li);
  }
  input.addEventListener('keydown', record);
  input.addEventListener('keyup', record);
  document.getElementById('clear-log').addEventListener('click', () => log.replaceChildren());
})();
