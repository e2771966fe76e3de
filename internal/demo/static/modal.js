// Open the <dialog> as a modal; write which button closed it.
(function () {
  const dialog = document.getElementById('confirm-dialog');
  const result = document.getElementById('dialog-result');
  document.getElementById('open-dialog').addEventListener('click', () => {
    result.textContent = '';
    dialog.returnValue = '';
    dialog.showModal();
  });
  dialog.addEventListener('close', () => {
    result.textContent = dialog.returnValue === 'confirm' ? 'Confirmed' : 'Cancelled';
  });
})();
