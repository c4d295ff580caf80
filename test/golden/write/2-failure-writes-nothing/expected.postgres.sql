INSERT INTO "public"."tags" ("id", "name") VALUES ($1, $2) RETURNING "id", "name";

SELECT json_build_object('id', "t0"."id") AS result FROM "public"."tags" AS "t0" WHERE "t0"."id" = CAST($1 AS integer) LIMIT 1;
