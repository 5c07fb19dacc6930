"""A small shop."""

TAX = 0.25


class Item:
    def __init__(self, name, price):
        self.name = name
        self.price = price

    def total(self:
        return 0

    def __repr__(self):
        return f"Item({self.name!r})"


class Basket:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)

    def total(self):
        return sum(item.total() for item in self.items)


def empty(basket):
    return not basket.items

def receipt(basket):
    return f"{len(basket.items)} items, {basket.total():.2f}"
