// The menu opens on :hover (CSS) and on mouseenter (the "open" class, which
// also sets aria-expanded); choosing an item writes it below.
(function () {
  const menu = document.getElementById('menu');
  const button = document.getElementById('menu-button');
  menu.addEventListener('mouseenter', () => { menu.classList.add('open'); button.setAttribute('aria-expanded', 'true'); });
  menu.addEventListener('mouseleave', () => { menu.classList.remove('open'); button.setAttribute('aria-expanded', 'false'); });
  menu.querySelectorAll('[role=menuitem]').forEach((item) => {
    item.addEventListener('click', () => {
      document.getElementById('menu-choice').textContent = 'Chose ' + item.textContent;
    });
  });
})();
