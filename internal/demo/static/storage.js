// Write the value to localStorage or sessionStorage under the key "demo".
(function () {
  const input = document.getElementById('storage-value');
  function show() {
    document.getElementById('local-value').textContent = localStorage.getItem('demo') ?? '(empty)';
    document.getElementById('session-value').textContent = sessionStorage.getItem('demo') ?? '(empty)';
  }
  document.getElementById('save-local').addEventListener('click', () => { localStorage.setItem('demo', input.value); show(); });
  document.getElementById('save-session').addEventListener('click', () => { sessionStorage.setItem('demo', input.value); show(); });
  document.getElementById('clear-storage').addEventListener('click', () => {
    localStorage.removeItem('demo');
    sessionStorage.removeItem('demo');
    show();
  });
  show();
})();
