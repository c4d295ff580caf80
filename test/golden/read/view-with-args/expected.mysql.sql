SELECT JSON_ARRAY("t0"."id", "t0"."status", IF(MICROSECOND("t0"."ordered_at") = 0, DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%sZ'), DATE_FORMAT("t0"."ordered_at", '%Y-%m-%dT%H:%i:%s.%fZ')), (SELECT JSON_ARRAY("t1"."name") AS result FROM "svc_golden"."customers" AS "t1" WHERE "t1"."id" = "t0"."customer_id")) AS r FROM (SELECT "t0".* FROM (SELECT * FROM "svc_golden".orders WHERE ordered_at >= CAST($1 AS DATETIME(6)) AND ($2 IS NULL OR status = $3)) AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id") AS r FROM (SELECT "t0".* FROM (SELECT * FROM "svc_golden".orders WHERE ordered_at >= CAST($1 AS DATETIME(6)) AND ($2 IS NULL OR status = $3)) AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT JSON_ARRAY("t0"."id", "t0"."status") AS r FROM (SELECT * FROM "svc_golden".orders WHERE ordered_at >= CAST($1 AS DATETIME(6)) AND ($2 IS NULL OR status = $3)) AS "t0" WHERE "t0"."id" = $4 LIMIT 1;

SELECT JSON_OBJECT('_rows_count', count(*)) AS result FROM (SELECT * FROM "svc_golden".orders WHERE ordered_at >= CAST($1 AS DATETIME(6)) AND ($2 IS NULL OR status = $3)) AS "t0";

SELECT JSON_ARRAY((SELECT JSON_ARRAYAGG(JSON_ARRAY("t1"."id") ORDER BY "t1"."id" ASC) FROM (SELECT * FROM "svc_golden".orders WHERE ordered_at >= CAST($1 AS DATETIME(6)) AND ($2 IS NULL OR status = $3)) AS "t1" WHERE "t1"."customer_id" = "t0"."id")) AS r FROM "svc_golden"."customers" AS "t0" WHERE "t0"."id" = $4 LIMIT 2000;
