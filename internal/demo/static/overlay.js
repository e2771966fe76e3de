// Show a full-window overlay a moment after load, covering "Buy now". Tests
// use it for the "element is covered" error.
(function () {
  const overlay = document.getElementById('overlay');
  const delay = Number(overlay.dataset.delay || 500);
  setTimeout(() => { overlay.hidden = false; }, delay);
  document.getElementById('dismiss-overlay').addEventListener('click', () => { overlay.hidden = true; });
  document.getElementById('buy-now').addEventListener('click', () => {
    document.getElementById('buy-result').textContent = 'Bought';
  });
})();
