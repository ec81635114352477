# Twin of strings.q.
s = ""
for i in range(1, 20001):
    s = s + "%d," % i
print(len(s))
