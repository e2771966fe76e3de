// HTML5 drag and drop between two lists, and a range slider with its value.
(function () {
  const status = document.getElementById('drag-status');
  document.querySelectorAll('.droplist li').forEach((li) => {
    li.addEventListener('dragstart', (ev) => {
      ev.dataTransfer.setData('text/plain', li.id);
      ev.dataTransfer.effectAllowed = 'move';
    });
  });
  document.querySelectorAll('.droplist').forEach((list) => {
    list.addEventListener('dragover', (ev) => {
      ev.preventDefault();
      ev.dataTransfer.dropEffect = 'move';
      list.classList.add('over');
    });
    list.addEventListener('dragleave', () => list.classList.remove('over'));
    list.addEventListener('drop', (ev) => {
      ev.preventDefault();
      list.classList.remove('over');
      const item = document.getElementById(ev.dataTransfer.getData('text/plain'));
      if (!item) return;
      list.appendChild(item);
      const title = document.getElementById(list.getAttribute('aria-labelledby')).textContent;
      status.textContent = 'Moved "' + item.textContent + '" to ' + title;
    });
  });
  const range = document.getElementById('volume');
  const value = document.getElementById('volume-value');
  range.addEventListener('input', () => { value.textContent = range.value; });
})();
