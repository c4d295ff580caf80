// The custom jq functions of SPEC §8, written in jq. jq-web cannot call JavaScript, so everything
// the functions need from the host arrives as one prepared variable, `$__svc` (src/jq/engine.ts):
//   now      Unix seconds of "now" (fixed per evaluation, injectable in tests)
//   tz       the request's time zone (X-Svc-Timezone, Time-Zone, DB_TIMEZONE, UTC)
//   auth     {userId, userName, role} of the caller, or null
//   zones    offset tables per zone name, with a bucket index for fast lookup (src/jq/zones.ts)
//   answers  querySvc answers so far, by request key
// A zone table or querySvc answer that is not there yet is asked for on stderr through `debug`
// (`{"__svc": "zone" | "query", ...}`) and the call yields `empty`; the engine supplies it and runs
// the program again (repeated passes). `empty` rather than an error: a `try` in the program cannot
// swallow the request, and code that depends on the missing value does not run with a stand-in.
//
// Times are Unix seconds internally; the calendar arithmetic is Howard Hinnant's days/civil
// algorithm, so no C library time function (and no host time zone) is involved.

const HELPERS = String.raw`
def __svc_mod($n): . - ($n * ((. / $n) | floor));
def __svc_pad($n): tostring | ("000000" + .) | .[(length - $n):];
def __svc_days($y; $m; $d):
  ($y - (if $m <= 2 then 1 else 0 end)) as $yy | (($yy / 400) | floor) as $era | ($yy - $era * 400) as $yoe
  | (if $m > 2 then $m - 3 else $m + 9 end) as $mp | (((153 * $mp + 2) / 5 | floor) + $d - 1) as $doy
  | $era * 146097 + $yoe * 365 + ($yoe / 4 | floor) - ($yoe / 100 | floor) + $doy - 719468;
def __svc_civil:
  (. + 719468) as $z | (($z / 146097) | floor) as $era | ($z - $era * 146097) as $doe
  | (($doe - ($doe / 1460 | floor) + ($doe / 36524 | floor) - ($doe / 146096 | floor)) / 365 | floor) as $yoe
  | ($doe - (365 * $yoe + ($yoe / 4 | floor) - ($yoe / 100 | floor))) as $doy | ((5 * $doy + 2) / 153 | floor) as $mp
  | (if $mp < 10 then $mp + 3 else $mp - 9 end) as $m
  | [$yoe + $era * 400 + (if $m <= 2 then 1 else 0 end), $m, $doy - ((153 * $mp + 2) / 5 | floor) + 1];
def __svc_month_len($y; $m): (if $m == 12 then __svc_days($y + 1; 1; 1) else __svc_days($y; $m + 1; 1) end) - __svc_days($y; $m; 1);
def __svc_zone($tz):
  if ($tz | type) != "string" then error("a time zone must be a string such as \"Europe/Berlin\"")
  else ($__svc.zones[$tz] // ({"__svc": "zone", "name": $tz} | debug | empty)) end;
def __svc_index($z):
  if ($z.k | length) == 0 then 0
  else . as $u | ((($u - $z.from) / $z.b) | floor) as $n
    | if $n < 0 then 0 elif $n >= ($z.k | length) then ($z.o | length) - 1
      else $z.k[$n] | until(. + 1 >= ($z.t | length) or $z.t[. + 1] > $u; . + 1) end end;
def __svc_offset($z): $z.o[__svc_index($z)];
def __svc_to_local($z): . + __svc_offset($z);
def __svc_from_local($z): . as $l | ($l - __svc_offset($z)) as $u | $l - ($u | __svc_offset($z));
def __svc_parse_any($z):
  . as $text
  | (capture("^\\s*(?<y>\\d{4})-(?<mo>\\d{1,2})-(?<d>\\d{1,2})(?:[Tt ](?<h>\\d{1,2}):(?<mi>\\d{2})(?::(?<s>\\d{2})(?<f>[.,]\\d+)?)?)?\\s*(?<z>[Zz]|[+-]\\d{2}(?::?\\d{2})?)?\\s*$")
     // error("not a time: \($text | tojson) (use RFC 3339, e.g. \"2024-06-15T14:30:45Z\", or Unix seconds)"))
  | (__svc_days(.y | tonumber; .mo | tonumber; .d | tonumber) * 86400 + ((.h // "0") | tonumber) * 3600
     + ((.mi // "0") | tonumber) * 60 + ((.s // "0") | tonumber)
     + (if .f then ("0." + .f[1:]) | tonumber else 0 end)) as $l
  | if .z == null then $l | __svc_from_local($z)
    elif .z == "Z" or .z == "z" then $l
    else (.z | capture("^(?<sg>[+-])(?<hh>\\d{2}):?(?<mm>\\d{2})?$")) as $o
      | $l - (($o.hh | tonumber) * 3600 + (($o.mm // "0") | tonumber) * 60) * (if $o.sg == "-" then -1 else 1 end) end;
def __svc_parse($z):
  if type == "number" then .
  elif type != "string" then error("expected a time (RFC 3339 string or Unix seconds), got \(type)")
  elif test("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(Z|[+-]\\d{2}:\\d{2})?$") then
    .[19:] as $tail
    | (__svc_days(.[0:4] | tonumber; .[5:7] | tonumber; .[8:10] | tonumber) * 86400
       + (.[11:13] | tonumber) * 3600 + (.[14:16] | tonumber) * 60 + (.[17:19] | tonumber)) as $l
    | if $tail == "" then $l | __svc_from_local($z) elif $tail == "Z" then $l
      else $l - (($tail[1:3] | tonumber) * 3600 + ($tail[4:6] | tonumber) * 60) * (if $tail[0:1] == "-" then -1 else 1 end) end
  else __svc_parse_any($z) end;
def __svc_format($z):
  __svc_index($z) as $i | ((. + $z.o[$i]) * 1000 | round) as $lms | (($lms / 1000) | floor) as $ls | ($lms - $ls * 1000) as $f
  | ($ls | todate | .[0:19]) + (if $f > 0 then "." + ($f | __svc_pad(3) | sub("0+$"; "")) else "" end) + $z.l[$i];
def __svc_unit_seconds($u):
  {"ms": 0.001, "millisecond": 0.001, "milliseconds": 0.001, "s": 1, "sec": 1, "second": 1, "seconds": 1,
   "m": 60, "min": 60, "minute": 60, "minutes": 60, "h": 3600, "hour": 3600, "hours": 3600,
   "d": 86400, "day": 86400, "days": 86400, "w": 604800, "week": 604800, "weeks": 604800}[$u | tostring]
  // error("unknown time unit \($u | tojson) (use second, minute, hour, day or week)");
def __svc_duration:
  if type == "number" then {s: ., d: 0, mo: 0}
  elif type != "string" then error("a duration must be a string such as \"90s\", \"-30m\", \"2h\" or \"-7d\"")
  else . as $text
    | (capture("^\\s*(?<sg>[+-])?\\s*(?<rest>(?:\\d+(?:\\.\\d+)?\\s*[a-zA-Z]+\\s*)+)$")
       // error("invalid duration \($text | tojson) (use e.g. \"90s\", \"-30m\", \"2h\", \"-7d\", \"1h30m\")")) as $c
    | (if $c.sg == "-" then -1 else 1 end) as $sign
    | reduce ($c.rest | scan("(\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]+)")) as $p ({s: 0, d: 0, mo: 0};
        ($p[0] | tonumber * $sign) as $n | ($p[1] | ascii_downcase) as $u
        | if ($u | test("^(d|days?)$")) then .d += $n
          elif ($u | test("^(w|weeks?)$")) then .d += $n * 7
          elif ($u | test("^(mo|months?)$")) then .mo += $n
          elif ($u | test("^(y|years?)$")) then .mo += $n * 12
          else .s += $n * __svc_unit_seconds($u) end)
  end;
`;

// roundTime reads hugr's unit names too: plurals ("hours") and weekdays ("monday": the start of
// the latest Monday). No jq comments in here: the prelude is joined into one line.
const PUBLIC = String.raw`
def utcTime: $__svc.now | __svc_format(__svc_zone("UTC"));
def localTime: $__svc.now | __svc_format(__svc_zone($__svc.tz));
def unixTime: if . == null then $__svc.now else __svc_zone($__svc.tz) as $z | __svc_parse($z) end;
def fromUnixTime($tz): __svc_zone($tz) as $z
  | if type == "number" then __svc_format($z) else error("fromUnixTime: expected Unix seconds, got \(type)") end;
def fromUnixTime: fromUnixTime($__svc.tz);
def roundTime($unit; $tz):
  ($unit | if type == "string" and test("^(second|minute|hour|day|week|month|quarter|year)s$") then .[:-1] else . end) as $unit
  | {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6} as $weekdays
  | __svc_zone($tz) as $z | (__svc_parse($z) | __svc_to_local($z)) as $l | (($l / 86400) | floor) as $days
  | if ($unit | type) == "string" and $weekdays[$unit] != null then ($days - (($days + 3 - $weekdays[$unit]) | __svc_mod(7))) * 86400
    elif $unit == "second" then ($l | floor)
    elif $unit == "minute" then ($l / 60 | floor) * 60
    elif $unit == "hour" then ($l / 3600 | floor) * 3600
    elif $unit == "day" then $days * 86400
    elif $unit == "week" then ($days - (($days + 3) | __svc_mod(7))) * 86400
    elif $unit == "month" then ($days | __svc_civil) as $c | __svc_days($c[0]; $c[1]; 1) * 86400
    elif $unit == "quarter" then ($days | __svc_civil) as $c | __svc_days($c[0]; ($c[1] - 1) - (($c[1] - 1) % 3) + 1; 1) * 86400
    elif $unit == "year" then ($days | __svc_civil) as $c | __svc_days($c[0]; 1; 1) * 86400
    elif ($unit | type) != "number" and (($unit | type) != "string" or ($unit | test("^\\s*[+-]?\\s*\\d") | not)) then
      error("roundTime: unknown unit \($unit | tojson) (use second, minute, hour, day, week, month, quarter, year, a weekday such as \"monday\" or a duration such as \"15m\")")
    else ($unit | __svc_duration) as $d
      | if $d.mo != 0 then error("roundTime: use \"month\" or \"year\" instead of \($unit | tojson)")
        else ($d.s + $d.d * 86400) as $step
        | if $step <= 0 then error("roundTime: the unit must be positive, got \($unit | tojson)")
          else ($l / $step | floor) * $step end end end
  | __svc_from_local($z) | __svc_format($z);
def roundTime($unit): roundTime($unit; $__svc.tz);
def timeAdd($duration; $tz):
  __svc_zone($tz) as $z | __svc_parse($z) as $u | ($duration | __svc_duration) as $p
  | (if $p.mo == 0 and $p.d == 0 then $u
     else ($u | __svc_to_local($z)) as $l | (($l / 86400) | floor) as $days | ($days | __svc_civil) as $c
       | ($c[0] * 12 + $c[1] - 1 + $p.mo) as $mi | (($mi / 12) | floor) as $y | ($mi - $y * 12 + 1) as $m
       | ([$c[2], __svc_month_len($y; $m)] | min) as $dd
       | ((__svc_days($y; $m; $dd) + $p.d) * 86400 + ($l - $days * 86400)) | __svc_from_local($z) end) + $p.s
  | __svc_format($z);
def timeAdd($duration): timeAdd($duration; $__svc.tz);
def datePart($part; $tz):
  __svc_zone($tz) as $z | (__svc_parse($z) | __svc_to_local($z)) as $l | (($l / 86400) | floor) as $days
  | ($days | __svc_civil) as $c | ($l - $days * 86400) as $tod
  | if $part == "year" then $c[0] elif $part == "month" then $c[1] elif $part == "day" then $c[2]
    elif $part == "hour" then ($tod / 3600 | floor) elif $part == "minute" then (($tod / 60 | floor) % 60)
    elif $part == "second" then (($tod | floor) % 60)
    elif $part == "weekday" then ((($days + 3) | __svc_mod(7)) + 1)
    elif $part == "yearday" then $days - __svc_days($c[0]; 1; 1) + 1
    elif $part == "quarter" then (($c[1] - 1) / 3 | floor) + 1
    else error("datePart: unknown part \($part | tojson) (use second, minute, hour, day, month, year, weekday or yearday)") end;
def datePart($part): datePart($part; $__svc.tz);
def timeDiff($t2; $unit): __svc_zone($__svc.tz) as $z | (__svc_parse($z) - ($t2 | __svc_parse($z))) / __svc_unit_seconds($unit);
def timeDiff($t2): timeDiff($t2; "second");
def authInfo: $__svc.auth;
def querySvc($text; $vars):
  if ($text | type) != "string" then error("querySvc: the query text must be a string")
  elif $vars != null and ($vars | type) != "object" then error("querySvc: the variables must be an object")
  else ($text + "\u0000" + (($vars // {}) | tojson)) as $key
    | if ($__svc.answers | has($key)) then $__svc.answers[$key]
      else ({"__svc": "query", "key": $key, "query": $text, "variables": ($vars // {})} | debug | empty) end end;
def querySvc($text): querySvc($text; {});
`;

// Everything a program writes ends up in JavaScript arrays of the worker, one element per byte: a
// runaway writer (`range(1e12)`, `debug` in a loop, a huge error message) would exhaust the worker's
// heap, and a worker dying of that can take the whole process with it (Node 20). So the program's
// own stderr is silenced, error messages are cut, and the outputs are counted (see wrapProgram).
const GUARDS = String.raw`
def __svc_error: error;
def error: if type == "string" and length > 65536 then .[0:65536] + "..." else . end | __svc_error;
def debug: .;
def debug(msg): .;
def stderr: .;
def halt_error($code): error(if type == "string" then . else tojson end);
def halt_error: halt_error(5);
`;

/** The error text the output guard raises; the engine reports it as JQ_MEMORY. */
export const OUTPUT_LIMIT_MARK = '__svc: output limit';

/** jq identifiers that a GraphQL variable can be bound to (`$name`); `__`-names stay ours. */
const BINDABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The text run by jq: variable bindings, then the definitions, then the caller's program, all on
 * the program's first line so that jq's line numbers in error messages stay the caller's. The
 * program becomes a function whose outputs leave as JSON texts (run with -r), each counted against
 * `outputLimit` characters; it ends with a newline so that a trailing comment cannot hide the rest.
 */
export function wrapProgram(program: string, variableNames: Iterable<string>, outputLimit: number): string {
  const bindings = [...variableNames]
    .filter((n) => BINDABLE.test(n) && !n.startsWith('__'))
    .map((n) => `$__svc.vars["${n}"] as $${n} | `)
    .join('');
  const body = program.trim() ? program : '.';
  const guard = `foreach (__svc_main | tojson) as $s (0; . + ($s | length); if . > ${Math.floor(outputLimit)} then ${JSON.stringify(OUTPUT_LIMIT_MARK)} | __svc_error else $s end)`;
  return `${bindings}${PRELUDE}def __svc_main: ${body}\n; ${guard}`;
}

const PRELUDE = (HELPERS + PUBLIC + GUARDS).replace(/\s*\n\s*/g, ' ').trim() + ' ';
