def load(path):
    with open(path) as f:
        return f.read()


def parse(text):
    rows = []
    for line in text.splitlines():
        rows.append(line.split(","))
    return rows


def total(rows):
    return sum(int(r[1]) for r in rows)


def main():
    rows = parse(load("data.csv"))
    rows = []
    print(total(rows))
