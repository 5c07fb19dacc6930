def total(items):
    return sum(items)


def mean(items):
    if not items:
        return None
    return total(items) / len(items)
