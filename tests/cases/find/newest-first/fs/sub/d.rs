fn d() {}
