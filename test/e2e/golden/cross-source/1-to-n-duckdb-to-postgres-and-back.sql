-- crm
SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'name': "t0"."name", 'orders': {'__svc_remote': 0, 'k0': "t0"."id"}} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "crm"."main"."customers" AS "t0" WHERE "t0"."id" <= CAST($1 AS INTEGER) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

-- sales
SELECT COALESCE(json_agg(json_build_object('i', "t1"."__i", 'v', (SELECT json_agg(json_build_object('id', "t2"."id", 'customer', json_build_object('__svc_remote', 0, 'k0', "t2"."customer_id")) ORDER BY "t2"."id" ASC) FROM "public"."orders" AS "t2" WHERE "t2"."customer_id" = "t1"."id"))), '[]'::json) AS result FROM unnest(CAST(ARRAY(SELECT _k.v FROM jsonb_array_elements_text(CAST($1 AS jsonb)) WITH ORDINALITY AS _k(v, n) ORDER BY _k.n) AS integer[]), CAST(ARRAY(SELECT _k.v FROM jsonb_array_elements_text(CAST($2 AS jsonb)) WITH ORDINALITY AS _k(v, n) ORDER BY _k.n) AS integer[])) AS "t1"("__i", "id");

-- crm
SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'i': "t3"."__i", 'v': (SELECT {'name': "t4"."name"} AS result FROM "crm"."main"."customers" AS "t4" WHERE "t4"."id" = "t3"."customer_id")}) END) AS result FROM (SELECT unnest(CAST(CAST($1 AS JSON) AS INTEGER[])) AS "__i", unnest(CAST(CAST($2 AS JSON) AS INTEGER[])) AS "customer_id") AS "t3";
