if a:
    f()
    g()
if b:
        f()
        g()
