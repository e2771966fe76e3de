// Buttons that open alert(), confirm() and prompt() and show the answer.
(function () {
  const out = document.getElementById('dialog-answer');
  document.getElementById('show-alert').addEventListener('click', () => {
    alert('Hello from the demo site');
    out.textContent = 'Alert closed';
  });
  document.getElementById('show-confirm').addEventListener('click', () => {
    out.textContent = 'Confirm: ' + (confirm('Do you want to continue?') ? 'yes' : 'no');
  });
  document.getElementById('show-prompt').addEventListener('click', () => {
    const answer = prompt('What is your name?', '');
    out.textContent = answer === null ? 'Prompt: cancelled' : 'Prompt: ' + answer;
  });
})();
