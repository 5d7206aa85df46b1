-- csmacd.lua - Wireshark dissector for the traces of csmacd, the 802.3
-- CSMA/CD emulator (Wireshark 3.x and 4.x, with Lua 5.2 or later; checked
-- with tshark 4.0).
--
-- Load it for one run:   wireshark -X lua_script:captures/csmacd.lua trace.pcap
--                        tshark -X lua_script:captures/csmacd.lua -r trace.pcap
-- or copy it into the personal Lua plugins folder (Help > About Wireshark >
-- Folders > Personal Lua Plugins, usually ~/.local/lib/wireshark/plugins/).
--
-- What it decodes (the layout is documented in src/model/ethframe.h; frame
-- numbers, like stations, count from 1):
--   * EtherType 0x88B5 (IEEE local experimental), csmacd's header:
--       csmacd.version, csmacd.length, csmacd.attempt, csmacd.station,
--       csmacd.frame, csmacd.collisions, csmacd.backoff_slots,
--       csmacd.queued_ns, then csmacd.padding and csmacd.fcs (every record
--       of a whole frame ends with its FCS), and csmacd.group, the
--       station's group, from the pcapng packet comment when there is one;
--       csmacd.segment, on a network of segments, the segment where the
--       record was seen (its comment ends in ", segment NAME"; every
--       segment has its own pair of interfaces, NAME-frames and
--       NAME-fragments), also on fragments; on a record a bridge's port
--       sent (its comment begins "forwarded by bridge NAME, port SEGMENT: "
--       or "flooded by ..."), csmacd.bridge, csmacd.bridge.port (the
--       segment it left by), csmacd.bridge.action ("forwarded": its
--       destination was known; "flooded": unknown, or a broadcast) and
--       csmacd.bridge.queued_ns (from the copy's entry into the port's
--       queue to this attempt's first bit), also on fragments.
--   * Collision fragments, from any traffic (a post-dissector; netANALYZER
--       transparent, netANALYZER and Ethernet link types): a record flagged
--       in error by its netANALYZER status, or (Ethernet) one that ends in
--       csmacd's jam and is shorter than the 64-octet minimum frame or
--       fails its FCS, gets csmacd.fragment = True, csmacd.collision (the
--       collision's number, from 1), the station and attempt its jam
--       names, an expert item (Sequence / Warning) and an Info line of its
--       own, and csmacd.group as on whole frames. Fields of the header
--       that made it onto the wire before the
--       jam are still decoded, so a fragment of a retry still matches
--       csmacd.attempt > 1.
--   * The frames of netANALYZER transparent records (the fragments'
--       interface of csmacd's pcapng traces, and the classic pcap's
--       default link type), which Wireshark itself shows as raw octets,
--       as Ethernet. In a pcapng trace the whole frames are on an Ethernet
--       interface, which Wireshark dissects itself; both formats decode to
--       the same fields.
--
-- Handy filters:
--   csmacd.fragment              collided attempts
--   !csmacd.fragment             frames sent whole
--   csmacd.attempt > 1 && !csmacd.fragment
--                                frames that got through after colliding
--   csmacd.station == 3          one station's transmissions
--   csmacd.group == "rogue"      one group's (pcapng traces of a scenario
--                                with groups: the packet comment names it)
--   csmacd.backoff_slots >= 512  long backoffs
--   csmacd.segment == "lab"      what the probe of segment lab saw (pcapng
--                                traces of a network of segments)
--   csmacd.bridge == "sw1"       the copies bridge sw1 sent (pcapng)
--   csmacd.bridge.action == "flooded"
--                                copies of frames whose destination the
--                                bridge did not know (or broadcasts)

-- Two copies. The system's (cmake --install: Wireshark's global Lua
-- plugins folder) and a user's (csmacd extcap --install-user: the user's
-- folder) may both be there, of one version or two, and Wireshark loads
-- every plugin, the global folder's first, then the user's, then -X
-- scripts: a second Proto "csmacd" would stop on "Proto_new: there cannot
-- be two protocols with the same description", at every start. So one copy
-- registers: the user's when there is one (the system's steps aside for
-- it), else the first loaded; any later copy steps aside without a word (a
-- -X script beside an installed copy, or any copy after an older one that
-- loaded first and knows nothing of this rule: its Proto is there).
-- csmacd_dissector_file (in Wireshark's global Lua table) names the copy
-- that registered; `csmacd extcap --install-user` says which one that is.
local here = debug.getinfo(1, "S").source:gsub("^@", "")
if rawget(_G, "csmacd_dissector_file") ~= nil then
    return
end
do
    local function first_line(path)
        local fh = io.open(path, "r")
        if fh == nil then
            return nil
        end
        local line = fh:read("*l")
        fh:close()
        return line
    end
    local user_copy = Dir.personal_plugins_path() .. "/csmacd.lua"
    if here:match("^(.*)/[^/]*$") == Dir.global_plugins_path() and here ~= user_copy
        and first_line(user_copy) == first_line(here) then
        return
    end
end
local ok_proto, p_csmacd = pcall(Proto, "csmacd", "csmacd CSMA/CD emulator")
if not ok_proto then
    return
end
rawset(_G, "csmacd_dissector_file", here)

local MIN_FRAME = 64

local f = {
    version       = ProtoField.uint8("csmacd.version", "Version", base.DEC),
    length        = ProtoField.uint8("csmacd.length", "Header length", base.DEC),
    attempt       = ProtoField.uint16("csmacd.attempt", "Attempt", base.DEC),
    station       = ProtoField.uint32("csmacd.station", "Station", base.DEC),
    frame         = ProtoField.uint64("csmacd.frame", "Frame number", base.DEC),
    collisions    = ProtoField.uint32("csmacd.collisions", "Collisions before this attempt", base.DEC),
    backoff_slots = ProtoField.uint32("csmacd.backoff_slots", "Backoff slots drawn", base.DEC),
    queued_ns     = ProtoField.uint64("csmacd.queued_ns", "Time queued (ns)", base.DEC),
    padding       = ProtoField.bytes("csmacd.padding", "Padding"),
    fcs           = ProtoField.uint32("csmacd.fcs", "Frame check sequence", base.HEX),
    fragment      = ProtoField.bool("csmacd.fragment", "Collision fragment"),
    fragment_len  = ProtoField.uint32("csmacd.fragment.length", "Octets on the wire", base.DEC),
    collision     = ProtoField.uint32("csmacd.collision", "Collision number (from 1)", base.DEC),
    group         = ProtoField.string("csmacd.group", "Station's group"),
    segment       = ProtoField.string("csmacd.segment", "Segment where it was seen"),
    bridge        = ProtoField.string("csmacd.bridge", "Bridge that sent it"),
    bridge_port   = ProtoField.string("csmacd.bridge.port", "Bridge port (segment) it left by"),
    bridge_action = ProtoField.string("csmacd.bridge.action", "Forwarded or flooded"),
    bridge_queued = ProtoField.uint64("csmacd.bridge.queued_ns",
                                      "Time queued in the bridge port (ns)", base.DEC),
}
p_csmacd.fields = {
    f.version, f.length, f.attempt, f.station, f.frame, f.collisions,
    f.backoff_slots, f.queued_ns, f.padding, f.fcs, f.fragment,
    f.fragment_len, f.collision, f.group, f.segment,
    f.bridge, f.bridge_port, f.bridge_action, f.bridge_queued,
}

-- The station's group, when the scenario names groups: the pcapng
-- packet comment ends in ", group NAME" (classic pcap has no comments).
local ok_comment, f_comment = pcall(Field.new, "frame.comment")
if not ok_comment then f_comment = nil end

local function group_of_record()
    if not f_comment then return nil end
    for _, c in ipairs({ f_comment() }) do
        local g = tostring(c.value):match(", group ([%w_%-]+)")
        if g then return g end
    end
    return nil
end

-- The segment, on a network of segments: the comment ends in
-- ", segment NAME".
local function segment_of_record()
    if not f_comment then return nil end
    for _, c in ipairs({ f_comment() }) do
        local g = tostring(c.value):match(", segment ([%w_%-]+)$")
        if g then return g end
    end
    return nil
end

-- A bridge port's copy: the comment begins "forwarded by bridge NAME,
-- port SEGMENT: " (or "flooded by ...") and holds "queued U.UUU us in the
-- port". Returns action, bridge, port and the nanoseconds queued, or nil.
local function bridge_of_record()
    if not f_comment then return nil end
    for _, c in ipairs({ f_comment() }) do
        local text = tostring(c.value)
        local action, bridge, port = text:match("^(%a+) by bridge ([%w_%-]+), port ([%w_%-]+): ")
        if action == "forwarded" or action == "flooded" then
            local us, frac = text:match("queued (%d+)%.(%d%d%d) us in the port")
            local ns = us and (tonumber(us) * 1000 + tonumber(frac)) or nil
            return action, bridge, port, ns
        end
    end
    return nil
end

-- Adds the bridge's fields of a record (if a bridge sent it) to tree t;
-- returns the action, bridge, port and nanoseconds for the Info line.
local function add_bridge(t)
    local action, bridge, port, ns = bridge_of_record()
    if not action then return nil end
    t:add(f.bridge, bridge)
    t:add(f.bridge_port, port)
    t:add(f.bridge_action, action)
    if ns then t:add(f.bridge_queued, UInt64(ns)) end
    return action, bridge, port, ns
end

local ef_fragment = ProtoExpert.new("csmacd.fragment.expert", "Collision fragment",
                                    expert.group.SEQUENCE, expert.severity.WARN)
local ef_short = ProtoExpert.new("csmacd.short_header", "csmacd header cut short",
                                 expert.group.MALFORMED, expert.severity.NOTE)
p_csmacd.experts = { ef_fragment, ef_short }

-- Bit operations: the bit32 library of Wireshark builds with Lua 5.2, or
-- Lua 5.3+'s operators (compiled at run time, so 5.2 never parses them).
local band, bxor, rshift
if bit32 then
    band, bxor, rshift = bit32.band, bit32.bxor, bit32.rshift
else
    band = load("return function(a, b) return a & b end")()
    bxor = load("return function(a, b) return a ~ b end")()
    rshift = load("return function(a, n) return a >> n end")()
end

-- IEEE 802.3 CRC-32 (reflected 0xEDB88320), table built once.
local crc_table = {}
for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
        if band(c, 1) == 1 then
            c = bxor(rshift(c, 1), 0xEDB88320)
        else
            c = rshift(c, 1)
        end
    end
    crc_table[i] = c
end

local function crc32(tvb, offset, len)
    local c = 0xFFFFFFFF
    local bytes = tvb:raw(offset, len)
    for i = 1, len do
        c = bxor(crc_table[band(bxor(c, bytes:byte(i)), 0xFF)], rshift(c, 8))
    end
    return bxor(c, 0xFFFFFFFF)
end

-- Whether the last 4 octets of the frame are the FCS of the rest.
local function fcs_ok(tvb)
    local n = tvb:len()
    if n < 5 or n ~= tvb:reported_length_remaining() then return false end
    return crc32(tvb, 0, n - 4) == tvb(n - 4, 4):le_uint()
end

-- csmacd's 32-bit jam (src/model/ethframe.h): a mark (0xC5, or 0xC6 where 0xC5
-- would have made it the FCS of what came before), the attempt, and the
-- sending station from 1 (16 bits).
local function ends_in_jam(tvb)
    local n = tvb:len()
    if n < 4 then return false end
    local mark = tvb(n - 4, 1):uint()
    return mark == 0xC5 or mark == 0xC6
end

-- Whether a whole frame (tvb from the DA) is a collision fragment as
-- csmacd writes them: it ends in the jam, and it is shorter than a minimum
-- frame or (a late collision) its last 4 octets are not its FCS. The CRC
-- is computed only for such rare long records.
local function is_fragment(tvb)
    local n = tvb:len()
    if n < 4 or n ~= tvb:reported_length_remaining() then return false end
    if not ends_in_jam(tvb) then return false end
    return n < MIN_FRAME or not fcs_ok(tvb)
end

local function plural(n, word)
    if n == 1 then return "1 " .. word end
    return tostring(n) .. " " .. word .. "s"
end

-- The 0x88B5 payload: tvb starts right after the EtherType.
function p_csmacd.dissector(tvb, pinfo, tree)
    local n = tvb:len()
    pinfo.cols.protocol:set("CSMACD")
    local t = tree:add(p_csmacd, tvb(0, n))
    -- A fragment ends in 4 octets of jam; only the octets before it were
    -- the frame's. (A late-collision fragment, 64 octets or more, holds the
    -- whole header before its jam.)
    local fragment = n + 14 < MIN_FRAME and ends_in_jam(tvb)
    local usable = n
    if fragment then usable = n - 4 end
    local v = {}
    local layout = {
        { "version", 0, 1 }, { "length", 1, 1 }, { "attempt", 2, 2 },
        { "station", 4, 4 }, { "frame", 8, 8 }, { "collisions", 16, 4 },
        { "backoff_slots", 20, 4 }, { "queued_ns", 24, 8 },
    }
    for _, e in ipairs(layout) do
        local name, off, len = e[1], e[2], e[3]
        if off + len > usable then
            if not fragment then
                t:add_proto_expert_info(ef_short,
                    "csmacd header cut short after " .. off .. " octets")
            end
            break
        end
        local r = tvb(off, len)
        t:add(f[name], r)
        if len == 8 then v[name] = r:uint64() else v[name] = r:uint() end
    end

    -- Zero padding up to the minimum size, then the FCS (4 octets, least
    -- significant first) that ends every whole frame csmacd writes.
    local hdr = 32
    if not fragment and n >= hdr + 4 then
        if n > hdr + 4 then t:add(f.padding, tvb(hdr, n - hdr - 4)) end
        t:add_le(f.fcs, tvb(n - 4, 4))
    end
    local group = group_of_record()
    if group then t:add(f.group, group) end
    local segment = segment_of_record()
    if segment then t:add(f.segment, segment) end
    local b_action, b_name, b_port, b_ns = add_bridge(t)

    local info
    if v.station then
        info = string.format("Station %d", v.station)
        if group then info = info .. " (" .. group .. ")" end
        if v.frame then info = info .. string.format(" frame %s", tostring(v.frame)) end
        if v.attempt then info = info .. string.format(", attempt %d", v.attempt) end
        if v.collisions and v.collisions > 0 then
            info = info .. ", " .. plural(v.collisions, "collision") .. " before"
        end
        if v.backoff_slots and v.attempt and v.attempt > 1 then
            info = info .. ", backoff " .. plural(v.backoff_slots, "slot")
        end
        if v.queued_ns then
            info = info .. string.format(", queued %.3f us", tonumber(tostring(v.queued_ns)) / 1000)
        end
        if b_action then
            info = info .. string.format(", %s by bridge %s (port %s)", b_action, b_name, b_port)
            if b_ns then info = info .. string.format(", queued %.3f us there", b_ns / 1000) end
        end
        t:append_text(": " .. info)
    else
        info = "csmacd frame (header cut short)"
    end
    pinfo.cols.info:set(info)
    return n
end

DissectorTable.get("ethertype"):add(0x88B5, p_csmacd)

-- Post-dissector: marks collision fragments in any trace csmacd wrote,
-- numbers the collisions, and decodes the frames of netANALYZER
-- transparent records (csmacd's default link type), which Wireshark itself
-- shows as raw octets.
local p_frag = Proto("csmacd_collision", "csmacd collision fragments")
p_frag.prefs.rate_mbps = Pref.uint("Bit rate (Mb/s)", 10,
    "The trace's bit rate, to tell when a fragment ends: fragments that overlap "
    .. "at the probe belong to one collision")

local ok_na, f_na_len = pcall(Field.new, "netanalyzer.framelen")
if not ok_na then f_na_len = nil end
local eth_fcs = Dissector.get("eth_withfcs")

-- Collision numbers, from 1, computed on the first pass in file order
-- (records are in time order): a fragment that starts before every
-- fragment of the current collision has ended at the probe joins it.
local collision_of = {}
local cur = { n = 0, ends = -1 }

local function collision_number(pinfo, wire_octets)
    local k = collision_of[pinfo.number]
    if k then return k end
    local t = pinfo.abs_ts
    local dur = wire_octets * 8 / (p_frag.prefs.rate_mbps * 1e6)
    if t >= cur.ends then
        cur.n = cur.n + 1
        cur.ends = t + dur
    elseif t + dur > cur.ends then
        cur.ends = t + dur
    end
    collision_of[pinfo.number] = cur.n
    return cur.n
end

function p_frag.init()
    collision_of = {}
    cur = { n = 0, ends = -1 }
end

function p_frag.dissector(tvb, pinfo, tree)
    local status, preamble = nil, 8
    if f_na_len and f_na_len() and tvb:len() > 4 then
        status = tvb(0, 1):uint()
        if band(tvb(1, 1):uint(), 0x02) ~= 0 then
            -- Transparent: the preamble and SFD follow the header.
            local i = 4
            while i < tvb:len() and tvb(i, 1):uint() == 0x55 do i = i + 1 end
            if i < tvb:len() and tvb(i, 1):uint() == 0xD5 then i = i + 1 end
            preamble = i - 4
            if i >= tvb:len() then return end
            tvb = tvb(i):tvb()
            if status == 0 and eth_fcs then
                -- A whole frame: Ethernet (and csmacd's header) as usual.
                eth_fcs:call(tvb, pinfo, tree)
                return
            end
        else
            tvb = tvb(4):tvb()
        end
    end
    local fragment
    if status then
        fragment = band(status, 0x24) ~= 0 -- FCS error or shorter than 64
    else
        fragment = is_fragment(tvb)
    end
    if not fragment then return end
    local n = tvb:len()
    local t = tree:add(p_csmacd, tvb(0, n), "csmacd collision fragment")
    t:add(f.fragment, tvb(0, n), true)
    t:add(f.fragment_len, n):set_generated()
    local segment = segment_of_record()
    if segment then t:add(f.segment, segment):set_generated() end
    local k = collision_number(pinfo, preamble + n)
    t:add(f.collision, k):set_generated()
    t:add_proto_expert_info(ef_fragment, string.format(
        "Collision fragment: %d octets on the wire, the jam's 4 included", n))
    -- The station's group, as on whole frames (csmacd.group).
    local group = group_of_record()
    if group then t:add(f.group, group) end
    add_bridge(t)
    local who = ""
    if ends_in_jam(tvb) and tvb(n - 2, 2):uint() > 0 then
        -- The jam names the sender and the attempt.
        local st, att = tvb(n - 2, 2):uint(), tvb(n - 3, 1):uint()
        t:add(f.station, tvb(n - 2, 2), st):append_text(" (from the jam)")
        t:add(f.attempt, tvb(n - 3, 1), att):append_text(" (from the jam)")
        who = string.format(" from station %d, attempt %d", st, att)
    elseif n >= 14 + 8 and tvb(12, 2):uint() == 0x88B5 then
        who = string.format(" from station %d, attempt %d", tvb(18, 4):uint(), tvb(16, 2):uint())
    elseif n >= 12 + 4 then
        who = " from " .. tostring(tvb(6, 6):ether())
    end
    if group then who = who .. " (" .. group .. ")" end
    pinfo.cols.protocol:set("CSMACD")
    pinfo.cols.info:set(string.format("Collision %d: fragment of %d octets%s", k, n, who))
end

register_postdissector(p_frag)
