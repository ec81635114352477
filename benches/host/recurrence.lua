-- Twin of recurrence.q.
local s = 0.0
for i = 1, 1000000 do
    s = 0.5 * s + i % 7
end
print(s)
