-- Twin of strings.q.
local s = ""
for i = 1, 20000 do
    s = s .. string.format("%d,", i)
end
print(#s)
