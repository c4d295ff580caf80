SELECT "t0"."id" AS c0, ST_AsGeoJSON("t0"."location")::json AS c1, ST_AsGeoJSON("t0"."delivery_area")::json AS c2 FROM (SELECT "t0".* FROM "public"."stores" AS "t0" ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0, "t0"."name" AS c1 FROM (SELECT "t0".* FROM "public"."stores" AS "t0" WHERE ST_Contains(("t0"."delivery_area")::geometry, ST_GeomFromGeoJSON($1::text)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0, "t0"."name" AS c1 FROM (SELECT "t0".* FROM "public"."stores" AS "t0" WHERE ST_Within(("t0"."location")::geometry, ST_GeomFromText($1::text, $2::integer)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0, "t0"."name" AS c1 FROM (SELECT "t0".* FROM "public"."stores" AS "t0" WHERE ST_Intersects(("t0"."delivery_area")::geometry, ST_GeomFromText($1::text, $2::integer)) ORDER BY "t0"."id" ASC LIMIT 2000) AS "t0" ORDER BY "t0"."id" ASC;

SELECT "t0"."id" AS c0, "t0"."name" AS c1 FROM (SELECT "t0".* FROM "public"."stores" AS "t0" WHERE ST_Equals(("t0"."location")::geometry, ST_GeomFromGeoJSON($1::text)) LIMIT 2000) AS "t0";

SELECT "t0"."id" AS c0, "t0"."name" AS c1 FROM (SELECT "t0".* FROM "public"."stores" AS "t0" WHERE "t0"."location" IS NULL LIMIT 2000) AS "t0";

SELECT ST_AsGeoJSON(ST_Centroid(("t0"."delivery_area")::geometry))::json AS c0, ST_AsGeoJSON(ST_Envelope(("t0"."delivery_area")::geometry))::json AS c1, ST_AsGeoJSON(ST_FlipCoordinates(("t0"."location")::geometry))::json AS c2, ST_AsGeoJSON(ST_Reverse(("t0"."delivery_area")::geometry))::json AS c3, ST_AsGeoJSON(ST_StartPoint(("t0"."delivery_area")::geometry))::json AS c4, ST_Area(("t0"."delivery_area")::geometry) AS c5, ST_Perimeter(("t0"."delivery_area")::geometry) AS c6, ST_Length(("t0"."delivery_area")::geometry) AS c7 FROM "public"."stores" AS "t0" WHERE "t0"."id" = CAST($1 AS integer) LIMIT 1;
