exports.up = (knex) =>
  knex.schema.createTable('suppliers', (table) => {
    table.increments('id');
    table.string('name').notNullable();
    table.string('contact_email');
  });

exports.down = (knex) => knex.schema.dropTable('suppliers');
