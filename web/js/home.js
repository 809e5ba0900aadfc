// The front page: the Dice page is the app's first page, and a link with inputs
// keeps them (a separate file, as a strict Content-Security-Policy allows no
// inline script).
location.replace(`dice.html${location.search}${location.hash}`);
