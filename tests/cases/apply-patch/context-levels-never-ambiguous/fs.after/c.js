function f() {
  return x;
}
function g() {
  return y;
}
