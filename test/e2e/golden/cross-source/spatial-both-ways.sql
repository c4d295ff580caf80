-- sales
SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", '_spatial', json_build_object('crm_customers', json_build_object('__svc_remote', 0, 'k0', ST_AsGeoJSON("t0"."area")::json))) ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."depots" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

-- crm
SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'i': "t1"."__i", 'v': (SELECT CASE WHEN count(*) = 0 THEN NULL ELSE list({'name': "t2"."name"} ORDER BY "t2"."name" ASC NULLS FIRST) END FROM "crm"."main"."customers" AS "t2" WHERE svc_geo_within("t2"."home", "t1"."area"))}) END) AS result FROM (SELECT unnest(CAST(CAST($1 AS JSON) AS INTEGER[])) AS "__i", unnest(CAST(CAST($2 AS JSON) AS VARCHAR[])) AS "area") AS "t1";

-- crm
SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", '_spatial': {'sales_depots': {'__svc_remote': 0, 'k0': CAST(svc_geojson("t0"."home") AS JSON)}}} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "crm"."main"."customers" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

-- sales
SELECT COALESCE(json_agg(json_build_object('i', "t1"."__i", 'v', (SELECT json_agg(json_build_object('name', "t2"."name")) FROM "public"."depots" AS "t2" WHERE ST_DWithin(ST_Transform(("t2"."area")::geometry, 4326)::geography, ST_Transform(("t1"."home")::geometry, 4326)::geography, CAST(CAST($1 AS double precision) AS double precision))))), '[]'::json) AS result FROM unnest(CAST(ARRAY(SELECT _k.v FROM jsonb_array_elements_text(CAST($2 AS jsonb)) WITH ORDINALITY AS _k(v, n) ORDER BY _k.n) AS integer[]), CAST(ARRAY(SELECT ST_GeomFromGeoJSON(_k.v) FROM jsonb_array_elements_text(CAST($3 AS jsonb)) WITH ORDINALITY AS _k(v, n) ORDER BY _k.n) AS geometry[])) AS "t1"("__i", "home");
