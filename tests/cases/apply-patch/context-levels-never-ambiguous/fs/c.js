function f() {
  return x;
}
function g() {
  return x;
}
