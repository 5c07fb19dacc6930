function f(x) {
    if (x) {
        log(x);
        return 1;
    }
    return 0;
}
