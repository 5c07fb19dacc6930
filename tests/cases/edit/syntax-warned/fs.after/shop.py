def total(items):
    s = 0
    for item in items:
        s += item.price
    return s
