// "Load data" fetches a slow endpoint, then shows "Loaded".
(function () {
  const status = document.getElementById('load-status');
  document.getElementById('load').addEventListener('click', async () => {
    status.textContent = 'Loading…';
    try {
      const res = await fetch('/api/slow?ms=800');
      const body = await res.json();
      status.textContent = res.ok ? body.message : 'Failed: ' + body.error;
    } catch (err) {
      status.textContent = 'Failed: ' + err;
    }
  });
})();
