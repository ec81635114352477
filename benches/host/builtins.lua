-- Twin of builtins.q.
local s = 0.0
for i = 1, 1000000 do
    s = 0.5 * s + math.sqrt(i) + math.floor(i / 3) - i % 5
end
print(s)
