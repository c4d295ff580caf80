-- sales
SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'customer', json_build_object('__svc_remote', 0, 'k0', "t0"."customer_id")) ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."orders" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

-- crm
SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'i': "t1"."__i", 'v': (SELECT {'name': "t2"."name", 'country': "t2"."country"} AS result FROM "crm"."main"."customers" AS "t2" WHERE "t2"."id" = "t1"."customer_id")}) END) AS result FROM (SELECT unnest(CAST(CAST($1 AS JSON) AS INTEGER[])) AS "__i", unnest(CAST(CAST($2 AS JSON) AS INTEGER[])) AS "customer_id") AS "t1";
