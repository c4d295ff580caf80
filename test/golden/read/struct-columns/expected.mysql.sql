SELECT JSON_ARRAY("t0"."id", JSON_EXTRACT("t0"."size", '$')) AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" WHERE (CASE WHEN JSON_TYPE(JSON_EXTRACT("t0"."size", $1)) IN ('INTEGER', 'DOUBLE', 'DECIMAL') THEN CAST(JSON_VALUE("t0"."size", $1) AS DOUBLE) END) > $2 ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM "svc_golden"."products" AS "t0" WHERE ((CASE WHEN JSON_TYPE(JSON_EXTRACT("t0"."size", $1)) IN ('INTEGER', 'DOUBLE', 'DECIMAL') THEN CAST(JSON_VALUE("t0"."size", $1) AS DOUBLE) END) <= $2 AND JSON_VALUE("t0"."size", $3) = $4) LIMIT 2000;

SELECT JSON_ARRAY("t0"."id", JSON_EXTRACT("t0"."size", '$')) AS r FROM "svc_golden"."products" AS "t0" WHERE CAST(JSON_VALUE("t0"."size", $1) AS DATE) < CAST($2 AS DATE) LIMIT 2000;
