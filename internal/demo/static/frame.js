// The Pay button of the framed payment page: records the payment on the
// server, then shows "Paid" inside the frame.
(function () {
  const form = document.getElementById('pay-form');
  const status = document.getElementById('pay-status');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const res = await fetch('/frame/pay', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ sid: document.body.dataset.sid, card: form.elements.card.value }),
      });
      const body = await res.json();
      status.textContent = res.ok ? 'Paid' : body.error;
    } catch (err) {
      status.textContent = 'Payment failed: ' + err;
    }
  });
})();
