/** Material for plausible Spanish small-business data. */
export const FIRST_NAMES = [
  'Lucía', 'Hugo', 'Martina', 'Mateo', 'Sofía', 'Leo', 'Julia', 'Daniel', 'Paula', 'Alejandro', 'Valeria', 'Pablo',
  'Emma', 'Manuel', 'Daniela', 'Álvaro', 'Carmen', 'Javier', 'Elena', 'Adrián', 'Irene', 'Sergio', 'Noa', 'Iñaki',
  'Laura', 'Marcos', 'Alba', 'Jorge', 'Claudia', 'Raúl', 'Nerea', 'Íñigo', 'Ainhoa', 'Rubén', 'Rocío', 'Andrés',
  'María José', 'José Luis', 'Ana Belén', 'Juan Carlos', 'Begoña', 'Xavier', 'Montserrat', 'Jordi', 'Maite', 'Gonzalo',
] as const;

export const LAST_NAMES = [
  'García', 'Rodríguez', 'González', 'Fernández', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Martín',
  'Jiménez', 'Ruiz', 'Hernández', 'Díaz', 'Moreno', 'Muñoz', 'Álvarez', 'Romero', 'Alonso', 'Gutiérrez', 'Navarro',
  'Torres', 'Domínguez', 'Vázquez', 'Ramos', 'Gil', 'Ramírez', 'Serrano', 'Blanco', 'Molina', 'Morales', 'Suárez',
  'Ortega', 'Delgado', 'Castro', 'Ortiz', 'Rubio', 'Marín', 'Sanz', 'Núñez', 'Iglesias', 'Medina', 'Garrido',
  'Cortés', 'Castillo', 'Santos', 'Lozano', 'Guerrero', 'Cano', 'Prieto', 'Méndez', 'Cruz', 'Calvo', 'Gallego',
  'Vidal', 'León', 'Herrera', 'Peña', 'Flores', 'Cabrera', 'Campos', 'Vega', 'Fuentes', 'Carrasco', 'Aguirre', 'Etxeberria',
] as const;

export const COMPANIES = [
  'Ferretería Hermanos Ruiz', 'Talleres Gómez', 'Clínica Dental Sonrisa', 'Panadería La Espiga', 'Gestoría Martín y Asociados',
  'Construcciones Levante', 'Café Central', 'Floristería Las Camelias', 'Academia Cervantes', 'Inmobiliaria Costa Azul',
  'Bodegas Ribera Alta', 'Óptica Visión Clara', 'Transportes Iberia Express', 'Peluquería Estilo', 'Asesoría Fiscal Norte',
  'Restaurante El Puerto', 'Farmacia San Roque', 'Carpintería Artesana', 'Hotel Mirador', 'Electricidad Rayo',
  'Librería Alejandría', 'Fisioterapia Activa', 'Agencia de Viajes Sol', 'Distribuciones Ebro', 'Estudio Arquitectura Luz',
] as const;

export const MAIL_DOMAINS = ['gmail.com', 'hotmail.es', 'yahoo.es', 'outlook.es', 'telefonica.net'] as const;

export const TAGS = ['cliente', 'proveedor', 'lead', 'vip', 'seguimiento', 'factura pendiente', 'newsletter', 'presupuesto'] as const;

/** Lower-case ASCII slug for email local parts and domains. */
export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');
}
