SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'location', ST_AsGeoJSON("t0"."location")::json, 'delivery_area', ST_AsGeoJSON("t0"."delivery_area")::json) ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."stores" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'name', "t0"."name") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."stores" AS "t0" WHERE ST_Contains(("t0"."delivery_area")::geometry, ST_GeomFromGeoJSON($1::text)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'name', "t0"."name") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."stores" AS "t0" WHERE ST_Within(("t0"."location")::geometry, ST_GeomFromText($1::text, $2::integer)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'name', "t0"."name") ORDER BY "t0"."id" ASC), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."stores" AS "t0" WHERE ST_Intersects(("t0"."delivery_area")::geometry, ST_GeomFromText($1::text, $2::integer)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'name', "t0"."name")), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."stores" AS "t0" WHERE ST_Equals(("t0"."location")::geometry, ST_GeomFromGeoJSON($1::text)) LIMIT 2000) AS "t0";

SELECT COALESCE(json_agg(json_build_object('id', "t0"."id", 'name', "t0"."name")), '[]'::json) AS result FROM (SELECT "t0".* FROM "public"."stores" AS "t0" WHERE "t0"."location" IS NULL LIMIT 2000) AS "t0";

SELECT json_build_object('centroid', ST_AsGeoJSON(ST_Centroid(("t0"."delivery_area")::geometry))::json, 'envelope', ST_AsGeoJSON(ST_Envelope(("t0"."delivery_area")::geometry))::json, 'flipped', ST_AsGeoJSON(ST_FlipCoordinates(("t0"."location")::geometry))::json, 'reversed', ST_AsGeoJSON(ST_Reverse(("t0"."delivery_area")::geometry))::json, 'start', ST_AsGeoJSON(ST_StartPoint(("t0"."delivery_area")::geometry))::json, 'area', ST_Area(("t0"."delivery_area")::geometry), 'perimeter', ST_Perimeter(("t0"."delivery_area")::geometry), 'length', ST_Length(("t0"."delivery_area")::geometry)) AS result FROM "public"."stores" AS "t0" WHERE "t0"."id" = CAST($1 AS integer) LIMIT 1;
