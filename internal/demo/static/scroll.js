document.getElementById('far-button').addEventListener('click', () => {
  document.getElementById('far-result').textContent = 'Clicked the far button';
});
