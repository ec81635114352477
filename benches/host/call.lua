-- Twin of call.q.
local function f(x)
    return 0.5 * x + 1
end
local s = 0.0
for i = 1, 1000000 do
    s = f(s)
end
print(s)
