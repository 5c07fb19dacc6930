pub fn f() {}
// more
