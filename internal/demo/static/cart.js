// Add to cart without a page load, and keep the header badge "Cart (N)" up
// to date. Without JavaScript the form posts to /cart/add instead.
(function () {
  const badge = document.getElementById('cart-badge');
  const form = document.getElementById('add-form');
  if (!form) return;
  const status = document.getElementById('add-status');
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const id = Number(form.elements.id.value);
    const qty = Number(form.elements.qty.value || 1);
    status.textContent = 'Adding…';
    try {
      const res = await fetch('/api/cart', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: id, qty: qty }),
      });
      const body = await res.json();
      if (!res.ok) {
        status.textContent = 'Could not add to cart: ' + body.error;
        return;
      }
      badge.textContent = 'Cart (' + body.count + ')';
      const name = document.querySelector('h1').textContent;
      status.textContent = 'Added ' + qty + ' × ' + name + ' to your cart.';
    } catch (err) {
      status.textContent = 'Could not add to cart: ' + err;
    }
  });
})();
