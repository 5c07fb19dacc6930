# head
def f():
y = 1
    return 1
