"""A small shop."""

TAX = 0.2


class Item:
    def __init__(self, name, price):
        self.name = name
        self.price = price

    def total(self):
        return round(self.price * (1 + TAX), 2)


class Basket:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)

    def total(self):
        return sum(item.total() for item in self.items)


def receipt(basket):
    return f"{len(basket.items)} items, {basket.total():.2f}"
