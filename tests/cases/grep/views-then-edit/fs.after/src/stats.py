def total(items):
    return sum(items, 0)


def mean(items):
    return total(items) / len(items)
