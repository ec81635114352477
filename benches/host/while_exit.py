# Twin of while_exit.q.
total = 0
for n in range(1, 10001):
    x = n
    while x != 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        total = total + 1
print(total)
