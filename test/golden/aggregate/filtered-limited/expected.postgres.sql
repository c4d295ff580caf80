SELECT json_build_object('_rows_count', count(*)) AS result FROM "public"."orders" AS "t0" WHERE "t0"."status" = $1;

SELECT json_build_object('_rows_count', count(*), 'price', json_build_object('sum', sum("t0"."price"), 'max', max("t0"."price"))) AS result FROM (SELECT "t0".* FROM "public"."products" AS "t0" ORDER BY "t0"."price" ASC NULLS FIRST LIMIT 2) AS "t0";
