SELECT JSON_OBJECT('_rows_count', count(*)) AS result FROM "svc_golden"."orders" AS "t0" WHERE "t0"."status" = $1;

SELECT JSON_OBJECT('_rows_count', count(*), 'price', JSON_OBJECT('sum', sum("t0"."price"), 'max', CAST(max("t0"."price") AS DOUBLE))) AS result FROM (SELECT "t0".* FROM "svc_golden"."products" AS "t0" ORDER BY "t0"."price" ASC LIMIT 2) AS "t0";
