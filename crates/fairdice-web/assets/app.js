// fairdice web app: small progressive enhancements. Every page works without this
// file (its forms are plain GET forms); with it, changing what a chart shows
// resubmits at once, and the submit button shows that the server is working.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  for (const form of document.querySelectorAll("form.query")) {
    for (const radio of form.querySelectorAll('input[type="radio"]')) {
      radio.addEventListener("change", () => form.requestSubmit());
    }
    form.addEventListener("submit", () => {
      form.setAttribute("aria-busy", "true");
      // Leave empty optional boxes out of the URL so shared links stay short.
      for (const input of form.querySelectorAll('input[type="text"]')) {
        if (input.value.trim() === "") input.disabled = true;
      }
    });
  }
});

// Coming back with the browser's Back button shows the page from its cache: undo
// what submitting did.
window.addEventListener("pageshow", () => {
  for (const form of document.querySelectorAll("form.query")) {
    form.removeAttribute("aria-busy");
    for (const input of form.querySelectorAll("input:disabled")) input.disabled = false;
  }
});
