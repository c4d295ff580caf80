INSERT INTO "public"."tags" ("id", "name") VALUES ($1, $2) RETURNING "id", "name";

SELECT "t0"."id" AS c0 FROM "public"."tags" AS "t0" WHERE "t0"."id" = CAST($1 AS integer) LIMIT 1;
