pub fn f() {}
pub fn g() {}
