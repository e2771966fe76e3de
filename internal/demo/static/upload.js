// Show the names of the chosen files as soon as they are chosen.
(function () {
  const input = document.getElementById('files');
  const list = document.getElementById('chosen');
  input.addEventListener('change', () => {
    list.replaceChildren(...Array.from(input.files, (f) => {
      const li = document.createElement('li');
      li.textContent = f.name;
      return li;
    }));
  });
})();
