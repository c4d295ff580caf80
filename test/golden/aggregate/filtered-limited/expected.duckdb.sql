SELECT to_json({'_rows_count': count(*)}) AS result FROM "shop"."main"."orders" AS "t0" WHERE "t0"."status" = CAST($1 AS VARCHAR);

SELECT to_json({'_rows_count': count(*), 'price': {'sum': sum("t0"."price"), 'max': max("t0"."price")}}) AS result FROM (SELECT "t0".* FROM "shop"."main"."products" AS "t0" ORDER BY "t0"."price" ASC NULLS FIRST LIMIT 2) AS "t0";
