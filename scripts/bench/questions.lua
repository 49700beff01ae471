-- wrk script of `scripts/bench.sh questions` (issue 41): every request asks a new question, so
-- that no kept answer applies. AP_QUESTION is the path with placeholders, drawn anew per request:
--   {n:W:MAX}      a number from 1 to MAX, zero-padded to W digits (W 0: not padded)
--   {page:SIZE:MAX} an offset: a multiple of SIZE below MAX
--   {between:A:B}  a number from A to B
--   {range}        from=…&to=… : a range of 1 to 365 days within the last two years
--   {company}      part of a company name of seed-large: two last names and a line of business
-- AP_COOKIE is the session (none: no cookie). AP_STOP_AFTER, when set, stops each thread after
-- that many answers (for the "alone" figure: one connection, the slowest of N questions).
-- AP_PAUSE_MS, when set, makes each connection wait that long before each request: a steady
-- load below what the portal can answer, as a busy day brings it (wrk's `delay`).

local template = os.getenv("AP_QUESTION")
local cookie = os.getenv("AP_COOKIE")
local stop_after = tonumber(os.getenv("AP_STOP_AFTER") or "")
local pause = tonumber(os.getenv("AP_PAUSE_MS") or "")
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

function init(_)
  -- Different draws per thread and per run.
  math.randomseed(os.time() * 1000 + (thread_number or 0) * 7919 + math.floor(os.clock() * 1e6))
  answers = 0
end

local day = 24 * 60 * 60

-- As seed-large names its companies (src/seed/large): "<last name>[-<last name>] <business>
-- <town> <legal form>"; two last names and a business name 25 companies (one per town).
local lastnames = { "M%C3%BCller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner",
  "Becker", "Schulz", "Hoffmann", "Sch%C3%A4fer", "Koch", "Bauer", "Richter", "Klein", "Wolf",
  "Schr%C3%B6der", "Neumann", "Schwarz", "Zimmermann" }
local businesses = { "Vertrieb", "Handel", "Service", "%26%20Partner", "Energieberatung" }

local function draw(kind, first, second)
  if kind == "n" then
    local width, max = tonumber(first), tonumber(second)
    return string.format("%0" .. width .. "d", math.random(1, max))
  elseif kind == "between" then
    return tostring(math.random(tonumber(first), tonumber(second)))
  elseif kind == "page" then
    local size, max = tonumber(first), tonumber(second)
    return tostring(size * math.random(0, math.max(0, math.floor((max - 1) / size))))
  elseif kind == "company" then
    local first = math.random(#lastnames)
    local second = (first + math.random(1, #lastnames - 1) - 1) % #lastnames + 1
    return lastnames[first] .. "-" .. lastnames[second] .. "%20" .. businesses[math.random(#businesses)]
  elseif kind == "range" then
    local days = math.random(1, 365)
    local from = os.time() - math.random(days, 730) * day
    return "from=" .. os.date("!%Y-%m-%d", from) .. "&to=" .. os.date("!%Y-%m-%d", from + (days - 1) * day)
  end
  error("unknown placeholder " .. kind)
end

function request()
  local path = template:gsub("{(%a+):?(%d*):?(%d*)}", draw)
  local headers = {}
  if cookie and cookie ~= "" then
    headers["Cookie"] = "ap_session=" .. cookie
  end
  return wrk.format("GET", path, headers)
end

function response(_, _, _)
  answers = answers + 1
  if stop_after and answers >= stop_after then
    wrk.thread:stop()
  end
end

if pause then
  function delay()
    return pause
  end
end
