SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'location': CAST(svc_geojson("t0"."location") AS JSON), 'delivery_area': CAST(svc_geojson("t0"."delivery_area") AS JSON)} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."stores" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'name': "t0"."name"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."stores" AS "t0" WHERE svc_geo_contains("t0"."delivery_area", CAST($1 AS VARCHAR)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'name': "t0"."name"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."stores" AS "t0" WHERE svc_geo_within("t0"."location", CAST($1 AS VARCHAR)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'name': "t0"."name"} ORDER BY "t0"."id" ASC) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."stores" AS "t0" WHERE svc_geo_intersects("t0"."delivery_area", CAST($1 AS VARCHAR)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'name': "t0"."name"}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."stores" AS "t0" WHERE svc_geo_equals("t0"."location", CAST($1 AS VARCHAR)) LIMIT 2000) AS "t0";

SELECT to_json(CASE WHEN count(*) = 0 THEN [] ELSE list({'id': "t0"."id", 'name': "t0"."name"}) END) AS result FROM (SELECT "t0".* FROM "shop"."main"."stores" AS "t0" WHERE "t0"."location" IS NULL LIMIT 2000) AS "t0";

SELECT to_json({'centroid': CAST(svc_geojson(svc_geo_transform("t0"."delivery_area", $1)) AS JSON), 'envelope': CAST(svc_geojson(svc_geo_transform("t0"."delivery_area", $2)) AS JSON), 'flipped': CAST(svc_geojson(svc_geo_transform("t0"."location", $3)) AS JSON), 'reversed': CAST(svc_geojson(svc_geo_transform("t0"."delivery_area", $4)) AS JSON), 'start': CAST(svc_geojson(svc_geo_transform("t0"."delivery_area", $5)) AS JSON), 'area': svc_geo_measure("t0"."delivery_area", $6), 'perimeter': svc_geo_measure("t0"."delivery_area", $7), 'length': svc_geo_measure("t0"."delivery_area", $8)}) AS result FROM "shop"."main"."stores" AS "t0" WHERE "t0"."id" = CAST($9 AS INTEGER) LIMIT 1;
