// <demo-counter>: a button "Increment" and a count inside an open shadow root.
class DemoCounter extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `
      <style>:host { display: inline-flex; gap: .5rem; align-items: center; } span { font-weight: bold; }</style>
      <button type="button" part="button">Increment</button>
      <span part="count" aria-live="polite">0</span>`;
    const span = root.querySelector('span');
    root.querySelector('button').addEventListener('click', () => {
      span.textContent = String(Number(span.textContent) + 1);
    });
  }
}
customElements.define('demo-counter', DemoCounter);

document.getElementById('light-increment').addEventListener('click', () => {
  const span = document.getElementById('light-count');
  span.textContent = String(Number(span.textContent) + 1);
});
