(() => {
  // The fields the page shows as invalid: touched by the person, or in a
  // form whose submit the browser stopped (:user-invalid). A fresh form's
  // empty required fields are left out, as the page shows nothing for
  // them yet. null when there are none (the common case: one round trip).
  let list;
  try { list = Array.from(document.querySelectorAll(':user-invalid')); } catch (e) { return null; }
  list = list.filter((f) => f.validationMessage);
  return list.length ? list : null;
})()
